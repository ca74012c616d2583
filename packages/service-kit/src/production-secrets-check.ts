import { ConfigError } from './config-error'
import { DoctorProblem, type DoctorCheck } from './run-doctor'

/**
 * The doctor's `secrets` check: the service's settings read as production reads them (`NODE_ENV=production`),
 * and any secret that is a placeholder, public or short reported, whatever `NODE_ENV` this shell has.
 */
export function productionSecretsCheck(
  readConfig: (env: Record<string, string | undefined>) => unknown,
  env: Record<string, string | undefined>,
): DoctorCheck {
  return {
    name: 'secrets are not placeholders',
    run: async () => {
      try {
        readConfig({ ...env, NODE_ENV: 'production' })
      } catch (error) {
        if (!(error instanceof ConfigError)) throw error
        const secrets = error.problems.filter((p) => /secret|placeholder|public|demo/i.test(p))
        if (secrets.length > 0)
          throw new DoctorProblem(secrets.join('; '), 'set your own secrets (.env.example)')
      }
    },
  }
}
