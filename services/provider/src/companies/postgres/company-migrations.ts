import type { Migration } from '../../postgres/apply-migrations'

/**
 * The companies schema.
 * - `companies` is partitioned by `import_id`: each import loads and indexes a table of its own, then attaches
 *   it (`ATTACH PARTITION` takes SHARE UPDATE EXCLUSIVE on the parent, which does not conflict with the ACCESS
 *   SHARE of searches and open delivery cursors).
 * - `company_sources` is the version pointer: per source, the import its searches read. Searches pick it up in
 *   the same statement (`import_id = ANY (ARRAY(SELECT ...))`), so they see one whole import or the previous.
 * - `name_words`/`industry_words` are tsvectors of the in-memory folding (`tsvectorLiteral`), GIN-indexed for
 *   prefix queries; `ordinal` is the dataset order: the source's position (2^40 apart), then the row.
 */
export const COMPANY_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'companies, partitioned per import, and the per-source version pointer',
    sql: `
      CREATE SEQUENCE company_import_ids;
      CREATE TABLE company_source_positions (
        source text PRIMARY KEY,
        position serial NOT NULL UNIQUE
      );
      CREATE TABLE company_sources (
        source text PRIMARY KEY REFERENCES company_source_positions (source),
        import_id bigint NOT NULL,
        records bigint NOT NULL,
        rejected bigint NOT NULL,
        imported_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE companies (
        import_id bigint NOT NULL,
        ordinal bigint NOT NULL,
        id text NOT NULL,
        name text NOT NULL,
        country text,
        country_name text,
        industry text,
        city text,
        source text NOT NULL,
        name_words tsvector NOT NULL,
        industry_words tsvector NOT NULL
      ) PARTITION BY LIST (import_id);
      CREATE INDEX companies_ordinal ON companies (ordinal);
      CREATE INDEX companies_country_ordinal ON companies (country, ordinal);
      CREATE INDEX companies_name_words ON companies USING gin (name_words);
      CREATE INDEX companies_industry_words ON companies USING gin (industry_words);
    `,
  },
  {
    version: 2,
    name: 'the name index holds the country too (COUNTRY_WORDS): a search by name and country reads that country only',
    // A GIN index over two columns intersects their keys in one scan, the country's posting tree skipped
    // through (not read whole, as a bitmap of the country btree would be): a word found in 20 000 companies
    // costs 2 000 heap pages in one country, not 20 000. It serves the name alone as well, so it replaces the
    // name's own index.
    sql: `
      CREATE INDEX companies_name_country_words ON companies
        USING gin (name_words, array_to_tsvector(array_remove(ARRAY[country], NULL)));
      DROP INDEX companies_name_words;
    `,
  },
]
