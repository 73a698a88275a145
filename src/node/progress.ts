/**
 * A long build's progress, for a tree of `total` pages: `<verb> 1000/2000 pages` every 500 pages, and
 * nothing for trees of 300 pages or fewer, which are done before a line would help.
 */
export function progressLog(
  verb: string,
  total: number,
  log: ((line: string) => void) | undefined,
): (done: number) => void {
  let logged = 0;
  return (done) => {
    if (!log || total <= 300 || done - logged < 500) return;
    logged = done - (done % 500);
    log(`  ${verb} ${done}/${total} pages`);
  };
}
