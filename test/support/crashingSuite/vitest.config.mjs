// A suite whose worker dies mid-file, for checking that the test runner's count line shows it.
export default { test: { projects: [{ extends: true, test: { name: 'crashing', include: ['*.suite.ts'] } }] } };
