import { issuedBeforeSessionsEnded } from './sessions.rules.js';

describe('an access token after its user’s sessions ended', () => {
  const ended = new Date('2030-01-01T10:00:05.600Z');
  const second = Math.floor(ended.getTime() / 1000);

  it('is refused when issued in an earlier second', () => {
    expect(issuedBeforeSessionsEnded(second - 1, ended)).toBe(true);
  });
  it('works when issued in that second or later, and whenever the sessions never ended', () => {
    expect(issuedBeforeSessionsEnded(second, ended)).toBe(false);
    expect(issuedBeforeSessionsEnded(second + 60, ended)).toBe(false);
    expect(issuedBeforeSessionsEnded(second - 1, null)).toBe(false);
  });
  it('is refused without an issue time once sessions have ended', () => {
    expect(issuedBeforeSessionsEnded(undefined, ended)).toBe(true);
  });
});
