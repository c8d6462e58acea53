// dashboard: the market map. Every competitor as a point, match score across and confidence up, coloured by type;
// hover or keyboard focus shows who it is. SVG (d3-scale for the axes), so it is crisp, accessible and testable.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { scaleLinear } from 'd3-scale';
import type { Competitor } from '@rivals/sdk/browser';
import { TYPE_COLORS, TYPES } from './ui.js';

const M = { top: 16, right: 20, bottom: 44, left: 52 };
/** The drawing's size follows its box (text stays at its real size): wide and low on a desk, near square on a phone. */
const sizeFor = (width: number) => {
  const W = Math.max(300, Math.round(width));
  return { W, H: W < 560 ? Math.round(W * 0.85) : Math.min(420, Math.round(W * 0.5)) };
};

/** A lower bound that leaves room below the lowest value, on a multiple of ten. */
const floorTen = (values: number[]) => Math.max(0, Math.floor((Math.min(...values, 100) - 5) / 10) * 10);

export function MarketMap({ competitors, onSelect }: { competitors: Competitor[]; onSelect?(domain: string): void }) {
  const [active, setActive] = useState<Competitor | null>(null);
  const frame = useRef<HTMLDivElement>(null);
  const [{ W, H }, setSize] = useState(() => sizeFor(640));
  useEffect(() => {
    const el = frame.current;
    if (!el) return;
    const observer = new ResizeObserver(([entry]) => entry && setSize(sizeFor(entry.contentRect.width)));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  const { x, y } = useMemo(() => {
    const x = scaleLinear().domain([floorTen(competitors.map((c) => c.matchScore)), 100]).range([M.left, W - M.right]).nice();
    const y = scaleLinear().domain([floorTen(competitors.map((c) => c.confidence)), 100]).range([H - M.bottom, M.top]).nice();
    return { x, y };
  }, [competitors, W, H]);
  // Drawn best rank last, so the best matches sit on top; points on the same spot are fanned out around it.
  const points = useMemo(() => {
    const spots = new Map<string, Competitor[]>();
    for (const c of competitors) spots.set(`${c.matchScore}:${c.confidence}`, [...(spots.get(`${c.matchScore}:${c.confidence}`) ?? []), c]);
    return [...competitors]
      .sort((a, b) => b.rank - a.rank)
      .map((c) => {
        const spot = spots.get(`${c.matchScore}:${c.confidence}`)!;
        const i = spot.indexOf(c);
        const angle = (2 * Math.PI * i) / spot.length;
        const r = spot.length > 1 ? 7 : 0;
        return { c, cx: x(c.matchScore) + r * Math.cos(angle), cy: y(c.confidence) + r * Math.sin(angle) };
      });
  }, [competitors, x, y]);

  return (
    <figure class="map" data-testid="market-map">
      <figcaption>
        <span>Market map</span>
        <span class="legend">
          {TYPES.map((t) => (
            <span key={t}>
              <svg width="12" height="12" aria-hidden="true">
                <circle cx="6" cy="6" r="5" fill={TYPE_COLORS[t]} />
              </svg>
              {t}
            </span>
          ))}
        </span>
      </figcaption>
      <div class="map-frame" ref={frame}>
        <svg viewBox={`0 0 ${W} ${H}`} role="group" aria-label={`Market map of ${competitors.length} competitors: match score across, confidence up`}>
          {x.ticks(5).map((t) => (
            <g key={`x${t}`} class="tick">
              <line x1={x(t)} x2={x(t)} y1={M.top} y2={H - M.bottom} />
              <text x={x(t)} y={H - M.bottom + 18} text-anchor="middle">
                {t}
              </text>
            </g>
          ))}
          {y.ticks(5).map((t) => (
            <g key={`y${t}`} class="tick">
              <line x1={M.left} x2={W - M.right} y1={y(t)} y2={y(t)} />
              <text x={M.left - 10} y={y(t) + 4} text-anchor="end">
                {t}
              </text>
            </g>
          ))}
          <text class="axis-label" x={(M.left + W - M.right) / 2} y={H - 6} text-anchor="middle">
            Match score
          </text>
          <text class="axis-label" transform={`translate(14 ${(M.top + H - M.bottom) / 2}) rotate(-90)`} text-anchor="middle">
            Confidence
          </text>
          {points.map(({ c, cx, cy }) => (
            <circle
              key={c.domain}
              data-testid="map-point"
              data-type={c.type}
              class={`point${active?.domain === c.domain ? ' active' : ''}`}
              cx={cx}
              cy={cy}
              r={c.likelyCompetitor ? 8 : 6}
              fill={TYPE_COLORS[c.type]}
              tabIndex={0}
              role="button"
              aria-label={`${c.company} (${c.domain}): ${c.type}, match ${c.matchScore}, confidence ${c.confidence}${c.likelyCompetitor ? ', likely competitor' : ''}`}
              onMouseEnter={() => setActive(c)}
              onMouseLeave={() => setActive(null)}
              onFocus={() => setActive(c)}
              onBlur={() => setActive(null)}
              onClick={() => onSelect?.(c.domain)}
              onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && (e.preventDefault(), onSelect?.(c.domain))}
            />
          ))}
        </svg>
        {active && (
          <div
            class={`map-tip${x(active.matchScore) < W * 0.3 ? ' from-left' : x(active.matchScore) > W * 0.7 ? ' from-right' : ''}${y(active.confidence) < H * 0.3 ? ' below' : ''}`}
            role="tooltip"
            data-testid="map-tooltip"
            style={{ left: `${(x(active.matchScore) / W) * 100}%`, top: `${(y(active.confidence) / H) * 100}%` }}
          >
            <strong>
              #{active.rank} {active.company}
            </strong>
            <span>{active.domain}</span>
            <span>
              {active.type} · match {active.matchScore} · confidence {active.confidence}
            </span>
            {active.likelyCompetitor && <span>Likely competitor</span>}
          </div>
        )}
      </div>
    </figure>
  );
}
