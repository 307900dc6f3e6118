import { after, before, describe as nodeDescribe, it as nodeIt } from 'node:test';
import { checkPageHealth } from './page-health';

/** node:test's describe/it return promises the runner tracks itself; these wrappers say so. */
export function describe(name: string, fn: () => void): void {
  void nodeDescribe(name, fn);
}

/** A test that also fails on any page error, failed request or 5xx response of its pages (page-health). */
export function it(name: string, fn: () => Promise<void>): void {
  void nodeIt(name, () => checkPageHealth(fn));
}

export { after, before };
