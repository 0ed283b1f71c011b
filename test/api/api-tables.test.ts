import { describe, expect, it } from 'vitest';
import { apiMethodDef } from '../../electron/api/api-tables.js';
import { api } from '../../shared/api.js';
import { API_METHOD_NAMES, isApiMethod } from '../../shared/api/methods.js';

describe('the API table loaded per area', () => {
  it('names every method of the full table once, and each loads the same schemas as the full table', async () => {
    expect([...API_METHOD_NAMES].sort()).toEqual(Object.keys(api).sort());
    expect(new Set(API_METHOD_NAMES).size).toBe(API_METHOD_NAMES.length);
    for (const method of API_METHOD_NAMES) {
      expect(isApiMethod(method)).toBe(true);
      expect(await apiMethodDef(method)).toBe(api[method]);
    }
    expect(isApiMethod('notes.nope')).toBe(false);
    expect(isApiMethod('toString')).toBe(false);
  });
});
