/** Waiting for work without waiting forever (shutdown steps, the database pool's close). */

/**
 * Resolves true when `work` settles (fulfilled or rejected) within `ms` milliseconds, false when the time ran out
 * first. The work itself goes on either way; a rejection is absorbed here, so the caller handles failures separately.
 */
export async function settlesWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), Math.max(0, ms));
  });
  const settled = work.then(
    () => true,
    () => true,
  );
  const outcome = await Promise.race([settled, late]);
  clearTimeout(timer);
  return outcome;
}
