// dashboard: the market map for decks. Rivals grouped by segment (the categories they share with the target), each
// named, coloured by type, best first; exported as SVG or PNG exactly as drawn. The drawing is a self-contained SVG
// (its own fonts, colours and background), so that the exported file looks the same anywhere.
import { useMemo, useRef } from 'preact/hooks';
import type { CompetitorType } from '@rivals/sdk/browser';
import { downloadText } from '../csv.js';
import { TYPE_COLORS, TYPES } from './ui.js';

export interface SegmentRow {
  rank: number;
  company: string;
  domain: string;
  matchScore: number;
  type: CompetitorType;
  evidence?: { sharedCategories: string[] };
}

export interface Segment {
  id: string;
  name: string;
  rows: SegmentRow[];
}

const OTHER = 'other';
/** At most this many segments (the rest go to "other"), so that a deck stays legible. */
const MAX_SEGMENTS = 8;

/** "payment-processing" -> "Payment processing". */
export const segmentName = (id: string) => (id === OTHER ? 'Named rivals, other segments' : id.charAt(0).toUpperCase() + id.slice(1).replace(/-/g, ' '));

/**
 * Groups rows by segment: the shared category held by the most rows becomes a segment of every row that has it, then
 * the next among the rows left, and so on (each row in one segment). Rows sharing no category (a curated rival in
 * another category), and segments past MAX_SEGMENTS, go to "other". Rows stay in rank order.
 */
export function segmentsOf(rows: SegmentRow[]): Segment[] {
  const left = [...rows].sort((a, b) => a.rank - b.rank);
  const segments: Segment[] = [];
  while (left.length && segments.length < MAX_SEGMENTS - 1) {
    const counts = new Map<string, number>();
    for (const r of left) for (const c of new Set(r.evidence?.sharedCategories ?? [])) counts.set(c, (counts.get(c) ?? 0) + 1);
    const best = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0];
    if (!best) break;
    const members = left.filter((r) => r.evidence?.sharedCategories.includes(best[0]));
    segments.push({ id: best[0], name: segmentName(best[0]), rows: members });
    for (const m of members) left.splice(left.indexOf(m), 1);
  }
  if (left.length) segments.push({ id: OTHER, name: segmentName(OTHER), rows: left });
  return segments;
}

const W = 1200;
const PAD = 24;
const GAP = 16;
const HEAD = 64;
const BOX_HEAD = 34;
const LINE = 22;
const FONT = 'Helvetica, Arial, sans-serif';
/** The legend and the footnote need this much. */
const MIN_WIDTH = 640;
const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** The drawing is four units wide; a segment takes one unit per ten names (at most four), names flowing in columns. */
const UNITS = 4;
const PER_COLUMN = 10;

/** Segments laid out like words in lines: each box as wide as its names need, a new line when the line is full. */
function layout(segments: Segment[]) {
  const unit = (W - 2 * PAD - (UNITS - 1) * GAP) / UNITS;
  let x = 0;
  let y = HEAD;
  let lineHeight = 0;
  const boxes = segments.map((segment) => {
    const span = Math.min(UNITS, Math.max(1, Math.ceil(segment.rows.length / PER_COLUMN)));
    const shown = segment.rows.slice(0, span * PER_COLUMN);
    const lines = Math.ceil(shown.length / span);
    const h = BOX_HEAD + lines * LINE + (segment.rows.length > shown.length ? LINE : 0) + 10;
    if (x + span > UNITS) {
      x = 0;
      y += lineHeight + GAP;
      lineHeight = 0;
    }
    const w = span * unit + (span - 1) * GAP;
    const box = { segment, shown, lines, columns: span, x: PAD + x * (unit + GAP), y, w, h };
    x += span;
    lineHeight = Math.max(lineHeight, h);
    return box;
  });
  // As wide as the boxes (and the title) need, so that a slide gets no empty margin: at most W.
  const used = Math.max(...boxes.map((b) => b.x + b.w), 0) + PAD;
  return { boxes, height: y + lineHeight + PAD + 30, chars: Math.floor((unit - 40) / 7.2), used };
}

export function SegmentMap({ title, rows, fileName }: { title: string; rows: SegmentRow[]; fileName: string }) {
  const svg = useRef<SVGSVGElement>(null);
  const segments = useMemo(() => segmentsOf(rows), [rows]);
  const { boxes, height, chars, used } = useMemo(() => layout(segments), [segments]);
  const width = Math.round(Math.min(W, Math.max(MIN_WIDTH, used, clip(title, 90).length * 12 + 2 * PAD)));

  const svgText = () => new XMLSerializer().serializeToString(svg.current!);
  const exportSvg = () => downloadText(`${fileName}.svg`, svgText(), 'image/svg+xml;charset=utf-8');
  const exportPng = async () => {
    // The page's policy allows data: images, so the SVG is drawn through one (no blob: URL), at twice its size.
    const image = new Image();
    image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svgText())}`;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = width * 2;
    canvas.height = height * 2;
    const context = canvas.getContext('2d')!;
    context.scale(2, 2);
    context.drawImage(image, 0, 0, width, height);
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
    if (!blob) return;
    const url = URL.createObjectURL(blob);
    const link = document.createElement('a');
    link.href = url;
    link.download = `${fileName}.png`;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  };

  return (
    <figure class="segment-map" data-testid="segment-map">
      <div class="map-frame">
        <svg ref={svg} xmlns="http://www.w3.org/2000/svg" viewBox={`0 0 ${width} ${height}`} width={width} height={height} role="img" aria-label={`${title}: ${rows.length} companies in ${segments.length} segments`} font-family={FONT}>
          <rect width={width} height={height} fill="#ffffff" />
          <text x={PAD} y={34} font-size="22" font-weight="700" fill="#1d2330">
            {clip(title, 90)}
          </text>
          <g transform={`translate(${PAD} 52)`}>
            {TYPES.map((t, i) => (
              <g key={t} transform={`translate(${i * 110} 0)`}>
                <rect width="12" height="12" y="-10" rx="3" fill={TYPE_COLORS[t]} />
                <text x="18" font-size="13" fill="#4a5163">
                  {t}
                </text>
              </g>
            ))}
          </g>
          {boxes.map(({ segment, shown, lines, columns, x, y, w, h }) => (
            <g key={segment.id} transform={`translate(${x} ${y + 10})`} data-testid="segment">
              <rect width={w} height={h} rx="8" fill="#f5f6f9" stroke="#d9dce3" />
              <text x="14" y="23" font-size="14" font-weight="700" fill="#1d2330">
                {clip(segment.name, chars - 5)} <tspan fill="#6b7285" font-weight="400">({segment.rows.length})</tspan>
              </text>
              {shown.map((r, i) => (
                <g
                  key={r.domain}
                  transform={`translate(${14 + Math.floor(i / lines) * ((w - 14) / columns)} ${BOX_HEAD + (i % lines) * LINE})`}
                  data-testid="segment-company"
                  data-type={r.type}
                >
                  <title>{`#${r.rank} ${r.company} (${r.domain}): ${r.type}, match ${r.matchScore}`}</title>
                  <rect width="10" height="10" y="3" rx="2" fill={TYPE_COLORS[r.type]} />
                  <text x="18" y="12" font-size="13" fill="#1d2330">
                    {clip(r.company, chars - 4)}
                  </text>
                  <text x={(w - 14) / columns - 16} y="12" font-size="12" text-anchor="end" fill="#6b7285">
                    {r.matchScore}
                  </text>
                </g>
              ))}
              {segment.rows.length > shown.length && (
                <text x="14" y={BOX_HEAD + lines * LINE + 12} font-size="12" fill="#6b7285">
                  and {segment.rows.length - shown.length} more
                </text>
              )}
            </g>
          ))}
          <text x={width - PAD} y={height - 12} font-size="11" text-anchor="end" fill="#8a90a0">
            Grouped by shared category · colour: relationship type · number: match score · Rivals
          </text>
        </svg>
      </div>
      <figcaption class="map-exports">
        <button type="button" class="secondary" onClick={exportSvg} data-testid="export-svg">
          Export SVG
        </button>
        <button type="button" class="secondary" onClick={() => void exportPng()} data-testid="export-png">
          Export PNG
        </button>
      </figcaption>
    </figure>
  );
}
