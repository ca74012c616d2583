const preset = require('../../jest.preset.cjs')(__dirname)

// any-ascii ships as an ES module only: Jest runs CommonJS, so SWC turns it into CommonJS like our sources.
module.exports = {
  ...preset,
  transform: {
    ...preset.transform,
    '/any-ascii/.+\\.js$': ['@swc/jest', { module: { type: 'commonjs' } }],
  },
  transformIgnorePatterns: ['/node_modules/(?!(\\.pnpm/any-ascii@[^/]+/node_modules/)?any-ascii/)'],
}
