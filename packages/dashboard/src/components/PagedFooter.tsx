// dashboard: the foot of a paged list: loading, an error, or "Load more".
import type { Paged } from '../hooks.js';
import { ErrorNotice, Loading } from './ui.js';

export function PagedFooter({ list }: { list: Paged<unknown> }) {
  if (list.loading) return <Loading />;
  if (list.error) return <ErrorNotice error={list.error} onRetry={list.items.length ? list.loadMore : list.reload} />;
  if (!list.more) return null;
  return (
    <button type="button" class="secondary" onClick={list.loadMore}>
      Load more
    </button>
  );
}
