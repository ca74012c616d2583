// Placeholder for root commands whose issue has not landed yet; it says so instead of failing silently.
const [command, what] = process.argv.slice(2)
console.log(`pnpm ${command}: not yet — ${what} has not landed.`)
