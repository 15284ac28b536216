// The order a reader sees a value's findings in: errors first, then warnings, then info, each by where it starts.
import type { Finding, Severity } from '../rules/types.js';

const SEVERITY_ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

export const bySeverityThenOffset = (a: Finding, b: Finding): number =>
  SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] || (a.offset ?? 0) - (b.offset ?? 0);
