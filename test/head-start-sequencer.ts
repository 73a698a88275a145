/**
 * The order in which `npm test` hands its files to the workers. Vitest's own order runs the projects of a
 * group one after another (by name) and, inside a project, the longest files first by the durations it
 * cached in an earlier run, or the largest files first without them. A clean clone (CI) has no cache, and
 * the longest files are small ones (a fault-matrix half is four lines that run a shared matrix), so they
 * came last and ran on one worker while the other had nothing left to do. The files named here, the
 * longest by far, start first, in this order; the rest keep vitest's order, and the many short unit
 * files fill the end of the run.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * In this order, so that each file meets the same neighbours it has long run beside: the early taps (timed
 * against the takeover, in a slowed-down browser) beside the accessibility walk, not beside a fault-matrix
 * half's three pages at a time; the two halves beside each other.
 */
export const HEAD_START = [
  'test/e2e/accessibility.test.ts',
  'test/e2e/early-taps.test.ts',
  'test/resilience/faults-first-load.test.ts',
  'test/resilience/faults-after-navigation.test.ts',
  'test/resilience/markdown-fuzz.test.ts',
];

export default class HeadStartSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const place = new Map(sorted.map((spec, index) => [spec, index]));
    const headStart = (spec: TestSpecification) => {
      const listed = HEAD_START.findIndex((file) => spec.moduleId.endsWith(`/${file}`));
      return listed === -1 ? HEAD_START.length : listed;
    };
    return [...sorted].sort(
      (a, b) =>
        a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder ||
        headStart(a) - headStart(b) ||
        (place.get(a) ?? 0) - (place.get(b) ?? 0),
    );
  }
}
