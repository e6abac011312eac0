// The e2e files share one database for the run. The contract fuzzer reads every table after each refused
// request (its "nothing changed" check, test/support/db-fingerprint.ts), so its time grows with what the
// files before it left: 31 s on a fresh database, 141-280 s as the 22nd file of a CI run. It goes first;
// the others keep jest's own order.
const Sequencer = require('@jest/test-sequencer').default;

const FIRST = ['contract-fuzz.e2e-spec.ts'];

class E2eSequencer extends Sequencer {
  sort(tests) {
    const rank = (test) => {
      const i = FIRST.findIndex((name) => test.path.endsWith(`/${name}`));
      return i < 0 ? FIRST.length : i;
    };
    const first = (sorted) => [...sorted].sort((a, b) => rank(a) - rank(b));
    const sorted = super.sort(tests);
    return sorted instanceof Promise ? sorted.then(first) : first(sorted);
  }
}

module.exports = E2eSequencer;
