import { issuedBeforeSessionsEnded } from './sessions.rules.js';

describe('an access token after its user’s sessions ended', () => {
  const ended = new Date('2030-01-01T10:00:05.600Z');
  const ms = ended.getTime();
  const second = Math.floor(ms / 1000);

  it('is refused when issued before, to the millisecond, also within the same second', () => {
    expect(issuedBeforeSessionsEnded({ iat: second, iat_ms: ms - 1 }, ended)).toBe(true);
    expect(issuedBeforeSessionsEnded({ iat: second, iat_ms: second * 1000 }, ended)).toBe(true);
  });
  it('works when issued at the moment or later, and whenever the sessions never ended', () => {
    expect(issuedBeforeSessionsEnded({ iat: second, iat_ms: ms }, ended)).toBe(false);
    expect(issuedBeforeSessionsEnded({ iat: second + 60, iat_ms: ms + 60_000 }, ended)).toBe(false);
    expect(issuedBeforeSessionsEnded({ iat: second - 1, iat_ms: ms - 1_000 }, null)).toBe(false);
  });
  it('falls back to whole seconds for a token issued before it carried milliseconds', () => {
    expect(issuedBeforeSessionsEnded({ iat: second - 1 }, ended)).toBe(true);
    expect(issuedBeforeSessionsEnded({ iat: second }, ended)).toBe(false);
  });
  it('is refused without an issue time once sessions have ended', () => {
    expect(issuedBeforeSessionsEnded({}, ended)).toBe(true);
    expect(issuedBeforeSessionsEnded({ iat: 'soon', iat_ms: 'soon' }, ended)).toBe(true);
  });
});
