// The time, with an offset tests can move (passcode rate limits are minutes and hours long).
// The offset can only be set when QUIRE_TEST_CLOCK=1 (see app/api/internal/clock).
const state = globalThis as unknown as { __quireClockOffsetMs?: number };

export function now(): Date {
  return new Date(Date.now() + (state.__quireClockOffsetMs ?? 0));
}

export function setClockOffset(ms: number): void {
  state.__quireClockOffsetMs = ms;
}
