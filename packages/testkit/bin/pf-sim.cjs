#!/usr/bin/env node
// A committed shim, so that pnpm install can link the bin before dist/ is built.
require('../dist/pf-sim.js')
