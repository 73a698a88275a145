import { describe, expect, it } from 'vitest';
import { IdList } from '../../../src/shared/id-list';

describe('a list of ids kept from query to query', () => {
  it('keeps every id past its first size, in order, and starts empty again once cleared', () => {
    const list = new IdList();
    const ids = Array.from({ length: 5_000 }, (_, i) => (i * 7919) % 100_003);
    for (const id of ids) list.push(id);
    expect([...list.view()]).toEqual(ids);
    list.clear();
    expect(list.view()).toHaveLength(0);
    list.push(42);
    list.push(7);
    expect([...list.view()]).toEqual([42, 7]);
  });
});
