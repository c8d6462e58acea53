// dashboard: a list page's table: its empty state, the header row (an empty heading is the actions column), the rows,
// and the paged list's foot (loading, error, "Load more").
import type { ComponentChildren } from 'preact';
import type { Paged } from '../hooks.js';
import { PagedFooter } from './PagedFooter.js';
import { Empty } from './ui.js';

export function ListTable(props: { headers: string[]; empty: ComponentChildren; count: number; list?: Paged<unknown>; settled?: boolean; children: ComponentChildren }) {
  const settled = props.settled ?? (props.list ? !props.list.loading && !props.list.error : true);
  return (
    <>
      {settled && props.count === 0 ? (
        <Empty>{props.empty}</Empty>
      ) : (
        <div class="table-wrap">
          <table class="list">
            <thead>
              <tr>
                {props.headers.map((h, i) => (
                  <th key={i} scope="col">
                    {h || <span class="visually-hidden">Actions</span>}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>{props.children}</tbody>
          </table>
        </div>
      )}
      {props.list && <PagedFooter list={props.list} />}
    </>
  );
}
