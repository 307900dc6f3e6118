import { after, before, describe as nodeDescribe, it as nodeIt } from 'node:test';

/** node:test's describe/it return promises the runner tracks itself; these wrappers say so. */
export function describe(name: string, fn: () => void): void {
  void nodeDescribe(name, fn);
}

export function it(name: string, fn: () => Promise<void>): void {
  void nodeIt(name, fn);
}

export { after, before };
