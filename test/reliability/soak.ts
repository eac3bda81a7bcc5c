// How much longer than in `npm test` the reliability suite runs: `npm run soak` sets
// QBRIDGE_SOAK (a whole multiple of the rounds and property runs); the test command leaves it 1.

const given = Number(process.env.QBRIDGE_SOAK ?? "1");
export const SOAK = Number.isInteger(given) && given > 1 ? given : 1;
