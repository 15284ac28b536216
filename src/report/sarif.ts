// SARIF 2.1.0 (OASIS), for code-scanning UIs: one run, the rule catalog as the driver's rules, one result per finding.
import type { RuleMeta, Severity } from '../rules/types.js';
import type { LocatedFinding, TicketReference } from '../ticket/validate.js';
import { jsonPieces } from './json-pieces.js';
import type { ValidationReport } from './report.js';

const LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = { error: 'error', warning: 'warning', info: 'note' };

function artifactUri(path: string): string {
  return path === '-' ? 'stdin' : path.split('\\').join('/').split('/').map(encodeURIComponent).join('/');
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

export function formatSarif(report: ValidationReport, catalog: readonly RuleMeta[]): string {
  return [...sarifPieces(report, catalog)].join('');
}

/** formatSarif in pieces (see json-pieces.ts): a result at a time. */
export function* sarifPieces(report: ValidationReport, catalog: readonly RuleMeta[]): Generator<string> {
  const index = new Map(catalog.map((m, i) => [m.code, i]));
  const results: unknown[] = [];
  for (const file of report.files) {
    const uri = artifactUri(file.path);
    const result = (f: LocatedFinding, ref?: TicketReference) => {
      const r: Record<string, unknown> = {
        ruleId: f.code,
        ruleIndex: index.get(f.code) ?? -1,
        level: LEVEL[f.severity],
        message: { text: (file.part !== undefined ? `In part ${file.part}, line ${f.line}:${f.column}: ` : '') + (ref ? `${f.message} (${ref.element}/@${ref.attribute})` : f.message) },
        // Inside a package part, line and column are the part's: the location names the package file alone.
        locations: [{ physicalLocation: file.part !== undefined ? { artifactLocation: { uri } } : { artifactLocation: { uri }, region: { startLine: f.line, startColumn: f.column } } }],
      };
      if (ref?.mappedBy) r.properties = { mappedBy: ref.mappedBy };
      if (ref && f.fix !== undefined && file.path !== '-' && file.part === undefined) {
        r.fixes = [{
          description: { text: `Set ${ref.attribute} to ${f.fix}` },
          artifactChanges: [{
            artifactLocation: { uri },
            replacements: [{
              deletedRegion: { startLine: ref.line, startColumn: ref.column, endLine: ref.endLine, endColumn: ref.endColumn },
              insertedContent: { text: escapeAttribute(f.fix) },
            }],
          }],
        }];
      }
      results.push(r);
    };
    for (const f of file.findings) result(f);
    for (const ref of file.references) for (const f of ref.findings) result(f, ref);
  }
  const sarif = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [{
      tool: {
        driver: {
          name: 'jdf-filespec',
          version: report.tool.version,
          rules: catalog.map((m) => ({
            id: m.code,
            name: m.code.replace(/(^|-)([a-z0-9])/g, (_, __, c: string) => c.toUpperCase()),
            shortDescription: { text: m.title },
            fullDescription: { text: m.description },
            help: { text: `${m.description} Spec: ${m.spec}. See docs/rules.md#${m.code}.` },
            defaultConfiguration: { level: LEVEL[m.severity.jdf ?? 'warning'] },
            properties: { spec: m.spec },
          })),
        },
      },
      columnKind: 'utf16CodeUnits',
      results,
    }],
  };
  yield* jsonPieces(sarif);
  yield '\n';
}
