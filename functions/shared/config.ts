// composition root: configuration from the environment, read once. Names match infra's and the local runtime's.
const intFromEnv = (name: string, fallback: number): number => {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a whole number, got "${raw}"`);
  return value;
};

export const config = {
  get tableName(): string {
    const name = process.env.TABLE_NAME;
    if (!name) throw new Error('TABLE_NAME is not set');
    return name;
  },
  get researchDeadlineMs(): number {
    return intFromEnv('RESEARCH_DEADLINE_MS', 25_000);
  },
  get freeCredits(): number {
    return intFromEnv('FREE_CREDITS', 10);
  },
  /** The dashboard's origin, to make share links absolute; they are relative (/share/<token>) without it. */
  get publicBaseUrl(): string | undefined {
    return process.env.PUBLIC_BASE_URL || undefined;
  },
  get version(): string {
    return process.env.SERVICE_VERSION ?? '0.1.0';
  },
};
