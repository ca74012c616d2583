/** A query of a panel: PromQL and the legend Grafana shows for each series (`{{label}}` templates). */
export interface PanelQuery {
  expr: string
  legend?: string
}

/** A panel as the dashboards' source states it; `grafanaDashboard` lays it out and fills Grafana's fields. */
export interface PanelSpec {
  title: string
  description: string
  /** Grafana unit: `reqps`, `ops`, `s`, `bytes`, `percentunit`, `short`. */
  unit: string
  queries: PanelQuery[]
  /** `stat` for one number (the overview), else a time series. */
  type?: 'timeseries' | 'stat'
  /** Width in Grafana's 24 columns (12: two a row; 6 for stats). */
  width?: number
}

export interface DashboardSpec {
  uid: string
  title: string
  description: string
  rows: { title: string; panels: PanelSpec[] }[]
}

const DATASOURCE = { type: 'prometheus', uid: '${datasource}' }

/**
 * The Grafana dashboard JSON model (schemaVersion 39) of `spec`: a `datasource` variable (any Prometheus, chosen
 * at import), one collapsed-free row per group, panels left to right, links to the kit's other dashboards.
 */
export function grafanaDashboard(spec: DashboardSpec): Record<string, unknown> {
  const panels: Record<string, unknown>[] = []
  let id = 1
  let y = 0
  for (const row of spec.rows) {
    panels.push({
      id: id++,
      type: 'row',
      title: row.title,
      collapsed: false,
      gridPos: { h: 1, w: 24, x: 0, y },
    })
    y += 1
    let x = 0
    let lineHeight = 0
    for (const panel of row.panels) {
      const w = panel.width ?? 12
      const h = panel.type === 'stat' ? 4 : 8
      if (x + w > 24) {
        x = 0
        y += lineHeight
        lineHeight = 0
      }
      panels.push(panelJson(panel, id++, { h, w, x, y }))
      x += w
      lineHeight = Math.max(lineHeight, h)
    }
    y += lineHeight
  }
  return {
    uid: spec.uid,
    title: spec.title,
    description: spec.description,
    tags: ['pf-integration-kit'],
    timezone: 'utc',
    editable: true,
    graphTooltip: 1,
    schemaVersion: 39,
    version: 1,
    refresh: '30s',
    time: { from: 'now-6h', to: 'now' },
    templating: {
      list: [
        { name: 'datasource', label: 'Prometheus', type: 'datasource', query: 'prometheus', current: {} },
      ],
    },
    annotations: { list: [] },
    links: [
      {
        type: 'dashboards',
        title: 'pf-integration-kit',
        tags: ['pf-integration-kit'],
        asDropdown: true,
        includeVars: true,
        keepTime: true,
      },
    ],
    panels,
  }
}

function panelJson(panel: PanelSpec, id: number, gridPos: Record<string, number>): Record<string, unknown> {
  const type = panel.type ?? 'timeseries'
  return {
    id,
    type,
    title: panel.title,
    description: panel.description,
    datasource: DATASOURCE,
    gridPos,
    fieldConfig: { defaults: { unit: panel.unit }, overrides: [] },
    options:
      type === 'stat'
        ? { reduceOptions: { calcs: ['lastNotNull'], fields: '', values: false }, colorMode: 'value' }
        : {
            legend: { displayMode: 'list', placement: 'bottom', showLegend: true },
            tooltip: { mode: 'multi', sort: 'desc' },
          },
    targets: panel.queries.map((query, i) => ({
      refId: String.fromCharCode(65 + i),
      datasource: DATASOURCE,
      expr: query.expr,
      legendFormat: query.legend ?? '__auto',
      range: true,
    })),
  }
}
