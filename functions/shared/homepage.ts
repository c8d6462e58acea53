// composition root: the homepage reader research uses (the guarded crawler). Its own module, so that an end-to-end test
// of the local runtime can put a fixture web in its place before the first search loads research.ts.
import type { HomepageReader } from '@rivals/core';
import { createHomepageReader } from '@rivals/crawler';

let reader: HomepageReader | undefined;

export const homepageReader = (): HomepageReader => (reader ??= createHomepageReader());

/** Test only: the reader of the engine built after this call (research.ts builds it once, when first loaded). */
export const useHomepageReader = (fixture: HomepageReader) => {
  reader = fixture;
};
