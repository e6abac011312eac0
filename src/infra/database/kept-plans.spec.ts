import { driverPlanName, keepPlan, SessionPlans } from './kept-plans.js';

const KEPT = keepPlan('UPDATE t SET n = n + $2 WHERE id = $1');

describe('SessionPlans', () => {
  it('prepares a kept statement on its first use and executes it by name after the message succeeded', () => {
    const plans = new SessionPlans();
    const first = plans.statements(KEPT, ['a', 2])!;
    expect(first).toHaveLength(2);
    expect(first[0]).toMatch(/^PREPARE (kept_\w+) AS UPDATE t SET n = n \+ \$2 WHERE id = \$1$/);
    const name = /^PREPARE (\w+)/.exec(first[0])![1];
    expect(first[1]).toBe(`EXECUTE ${name}('a', 2)`);
    plans.sent(first);
    expect(plans.statements(KEPT, ["it's", 3])).toEqual([`EXECUTE ${name}('it''s', 3)`]);
  });

  it('executes by name a second use written into the same transaction before the first went', () => {
    const plans = new SessionPlans();
    const first = plans.statements(KEPT, ['a', 1])!;
    const second = plans.statements(KEPT, ['b', 1])!;
    expect(second).toEqual([first[1].replace("'a'", "'b'")]);
  });

  it('prepares under a new name after a message carrying the PREPARE failed (it may or may not have run)', () => {
    const plans = new SessionPlans();
    const first = plans.statements(KEPT, ['a', 1])!;
    plans.lost(first);
    const again = plans.statements(KEPT, ['a', 1])!;
    expect(again).toHaveLength(2);
    expect(again[0]).not.toBe(first[0]);
    expect(again[0]).toMatch(/^PREPARE kept_\w+_1 AS /);
  });

  it('keeps a prepared name when a later message without its PREPARE fails', () => {
    const plans = new SessionPlans();
    const first = plans.statements(KEPT, ['a', 1])!;
    plans.sent(first);
    const later = plans.statements(KEPT, ['b', 1])!;
    plans.lost(later);
    expect(plans.statements(KEPT, ['c', 1])).toHaveLength(1);
  });

  it('leaves statements not marked with keepPlan to be written with literals', () => {
    expect(new SessionPlans().statements('SELECT $1', [1])).toBeNull();
  });
});

describe('driverPlanName', () => {
  it('names a kept statement by its text, the same name each time it is marked', () => {
    const name = driverPlanName(KEPT);
    expect(name).toMatch(/^plan_[0-9a-f]{16}$/);
    expect(driverPlanName(keepPlan('UPDATE t SET n = n + $2 WHERE id = $1'))).toBe(name);
    expect(driverPlanName(keepPlan('UPDATE t SET n = n - $2 WHERE id = $1'))).not.toBe(name);
  });

  it('has no name for a statement not marked with keepPlan: it runs unnamed', () => {
    expect(driverPlanName('SELECT 1 WHERE $1')).toBeUndefined();
  });
});
