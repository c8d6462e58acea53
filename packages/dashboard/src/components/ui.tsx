// dashboard: the small shared pieces: loading, empty and error states, type badges, score bars, copy buttons and
// dialogs (the native <dialog>: focus kept inside, Escape closes).
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { CompetitorType } from '@rivals/sdk/browser';
import { describeError } from '../errors.js';
import { useSession } from '../session.js';

export const TYPE_COLORS: Record<CompetitorType, string> = { Direct: '#c8323c', Indirect: '#d98a00', Adjacent: '#0f7f8c', Emerging: '#6a4c93' };
export const TYPES = Object.keys(TYPE_COLORS) as CompetitorType[];

export const Loading = ({ label = 'Loading…' }: { label?: string }) => (
  <p class="state loading" role="status" aria-live="polite" data-testid="loading">
    <span class="spinner" aria-hidden="true" />
    {label}
  </p>
);

/** A company's website, opened in a new tab without giving it this page. */
export const DomainLink = ({ domain }: { domain: string }) => (
  <a href={`https://${domain}`} target="_blank" rel="noopener noreferrer">
    {domain}
  </a>
);

export const Empty = ({ children }: { children: ComponentChildren }) => (
  <div class="state empty" data-testid="empty">
    {children}
  </div>
);

/** An error as a person reads it; insufficient credits has its own state, with the balance and what is needed. */
export function ErrorNotice({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const { balance } = useSession();
  if (!error) return null;
  const problem = describeError(error);
  if (problem.code === 'insufficient_credits') {
    const left = problem.creditsRemaining ?? balance;
    return (
      <div class="notice credits" role="alert" data-testid="insufficient-credits">
        <strong>Not enough credits.</strong>{' '}
        {left !== null ? `You have ${left} credit${left === 1 ? '' : 's'} left` : 'Your balance is too low'}
        {problem.creditsRequired !== null ? ` and this needs ${problem.creditsRequired}.` : '.'} A search costs 1 credit; reading past searches,
        shares and lists is free. Ask the operator of this Rivals service to add credits to your account.
      </div>
    );
  }
  return (
    <div class="notice error" role="alert" data-testid="error" data-code={problem.code}>
      <p>{problem.sentence}</p>
      {problem.details.length > 0 && (
        <ul>
          {problem.details.map((d) => (
            <li key={d.field}>
              <code>{d.field}</code>: {d.problem}
            </li>
          ))}
        </ul>
      )}
      {problem.requestId && <p class="muted small">Reference: {problem.requestId}</p>}
      {onRetry && (
        <button type="button" class="secondary" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}

export const TypeBadge = ({ type }: { type: CompetitorType }) => (
  <span class={`badge type-${type.toLowerCase()}`} data-testid="type-badge">
    {type}
  </span>
);

export const ScoreBar = ({ value, label }: { value: number; label: string }) => (
  <span class="score" title={`${label} ${value} of 100`}>
    <span class="bar" aria-hidden="true">
      <span style={{ width: `${value}%` }} />
    </span>
    <span class="num" aria-label={`${label} ${value} of 100`}>
      {value}
    </span>
  </span>
);

/** Copies text; says so for two seconds. */
export function CopyButton({ text, label = 'Copy', testId }: { text: string; label?: string; testId?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      setState('failed');
    }
    setTimeout(() => setState('idle'), 2000);
  };
  return (
    <button type="button" class="secondary" onClick={copy} data-testid={testId} aria-live="polite">
      {state === 'copied' ? 'Copied' : state === 'failed' ? 'Select and copy it' : label}
    </button>
  );
}

/** A modal dialog, open while `open` is true; Escape or the close button call onClose. */
export function Dialog(props: { open: boolean; title: string; onClose(): void; children: ComponentChildren; testId?: string; footer?: ComponentChildren }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (props.open && !dialog.open) dialog.showModal();
    if (!props.open && dialog.open) dialog.close();
  }, [props.open]);
  return (
    <dialog ref={ref} class="dialog" aria-labelledby="dialog-title" onClose={props.onClose} data-testid={props.testId}>
      <h2 id="dialog-title">{props.title}</h2>
      {props.children}
      <div class="actions">{props.footer}</div>
    </dialog>
  );
}

/** Asks before a destructive action. */
export function ConfirmDialog(props: { open: boolean; title: string; confirmLabel: string; onConfirm(): void; onCancel(): void; children: ComponentChildren }) {
  return (
    <Dialog
      open={props.open}
      title={props.title}
      onClose={props.onCancel}
      testId="confirm-dialog"
      footer={
        <>
          <button type="button" class="secondary" onClick={props.onCancel}>
            Cancel
          </button>
          <button type="button" class="danger" onClick={props.onConfirm} data-testid="confirm">
            {props.confirmLabel}
          </button>
        </>
      }
    >
      {props.children}
    </Dialog>
  );
}
