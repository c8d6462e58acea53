// contracts: list paging (docs/api.md "Conventions"): `?limit=` (default 50, max 200) and an opaque `?cursor=`.
import { z } from 'zod';

export const PAGE_LIMIT_DEFAULT = 50;
export const PAGE_LIMIT_MAX = 200;

/** The query of every paged list. Query values arrive as strings, so the limit is coerced. */
export const PageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(PAGE_LIMIT_MAX).default(PAGE_LIMIT_DEFAULT),
  cursor: z.string().min(1).max(2048).optional(),
});
export type PageQuery = z.output<typeof PageQuery>;

/** `{ items, nextCursor }`, newest first; nextCursor is null on the last page. */
export const pageOf = <Item extends z.ZodType>(item: Item) => z.strictObject({ items: z.array(item), nextCursor: z.string().nullable() });
