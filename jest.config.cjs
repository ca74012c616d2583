/** @type {import('jest').Config} */
module.exports = {
  projects: ['<rootDir>/packages/*', '<rootDir>/services/*', '<rootDir>/test'],
  // Service skeletons have no tests until their issue lands.
  passWithNoTests: true,
  // Integration tests start servers and processes; each still bounds its own waits well below this.
  testTimeout: 30_000,
}
