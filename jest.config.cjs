/** @type {import('jest').Config} */
module.exports = {
  projects: ['<rootDir>/packages/*', '<rootDir>/services/*', '<rootDir>/test'],
  // Service skeletons have no tests until their issue lands.
  passWithNoTests: true,
}
