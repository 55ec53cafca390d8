import { describe, expect, it } from 'vitest';
import { HttpError } from './http';
import { serverMessage } from './useErrorDialog';

describe('serverMessage (spec §8 device update failure: the server message)', () => {
  it('is the server’s message of a failed call', () => {
    expect(serverMessage(new HttpError(400, 'VALIDATION_FAILED', 'invalid body/name: too long'), 'Save failed')).toBe(
      'invalid body/name: too long',
    );
  });
  it('falls back when there is no message', () => {
    expect(serverMessage(new HttpError(500, 'HTTP_500', ''), 'Save failed')).toBe('Save failed');
    expect(serverMessage('boom', 'Save failed')).toBe('Save failed');
    expect(serverMessage(undefined, 'Save failed')).toBe('Save failed');
  });
});
