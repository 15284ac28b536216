"""An independent reader of the Prometheus text exposition format (version 0.0.4), for test/serve-server.test.ts.

Reads the text on standard input strictly, by the format's grammar: `# HELP name docstring`, `# TYPE name type`,
then samples `name{label="value",...} value`; a sample must follow the TYPE line of its family; a histogram's
buckets are cumulative (never decreasing as `le` grows) and its `+Inf` bucket equals its `_count`. Prints the
samples as JSON ([name, labels, value] lists), or exits 1 with the first line it cannot read.
"""
import json
import math
import re
import sys

NAME = r'[a-zA-Z_:][a-zA-Z0-9_:]*'
LABEL = r'[a-zA-Z_][a-zA-Z0-9_]*'
# A label value: any character but backslash, double quote and line feed, or one of the three escaped.
VALUE = r'(?:[^"\\\n]|\\[\\"n])*'
FLOAT = r'[+-]?(?:Inf|NaN|[0-9]+(?:\.[0-9]*)?(?:[eE][+-]?[0-9]+)?|\.[0-9]+(?:[eE][+-]?[0-9]+)?)'
SAMPLE = re.compile(rf'^({NAME})(?:\{{((?:{LABEL}="{VALUE}")(?:,{LABEL}="{VALUE}")*,?)?\}})? ({FLOAT})(?: -?[0-9]+)?$')
PAIR = re.compile(rf'({LABEL})="({VALUE})"')
HELP = re.compile(rf'^# HELP ({NAME}) (.*)$')
TYPE = re.compile(rf'^# TYPE ({NAME}) (counter|gauge|histogram|summary|untyped)$')


def fail(number, line, why):
    print(f'line {number}: {why}: {line!r}', file=sys.stderr)
    sys.exit(1)


def family_of(name, types):
    for suffix in ('_bucket', '_sum', '_count', ''):
        base = name[: len(name) - len(suffix)] if suffix and name.endswith(suffix) else name
        if base in types and (suffix == '' or types[base] in ('histogram', 'summary')):
            return base
    return None


def main():
    text = sys.stdin.read()
    if not text.endswith('\n'):
        fail(0, text[-40:], 'the text does not end with a line feed')
    types, samples = {}, []
    for number, line in enumerate(text[:-1].split('\n'), 1):
        if line.startswith('#'):
            m = TYPE.match(line)
            if m:
                if m.group(1) in types:
                    fail(number, line, 'a second TYPE line for the family')
                types[m.group(1)] = m.group(2)
            elif not HELP.match(line):
                fail(number, line, 'neither HELP nor TYPE')
            continue
        m = SAMPLE.match(line)
        if not m:
            fail(number, line, 'not a sample')
        name, labels, value = m.group(1), dict(PAIR.findall(m.group(2) or '')), float(m.group(3))
        if family_of(name, types) is None:
            fail(number, line, 'a sample before its TYPE line')
        samples.append([name, labels, value])
    for base, kind in types.items():
        if kind != 'histogram':
            continue
        buckets = sorted(((float(l['le']), v) for n, l, v in samples if n == base + '_bucket'), key=lambda b: b[0])
        counts = [v for _, v in buckets]
        if counts != sorted(counts):
            fail(0, base, 'histogram buckets decrease')
        count = [v for n, _, v in samples if n == base + '_count']
        if not buckets or not math.isinf(buckets[-1][0]) or count != [buckets[-1][1]]:
            fail(0, base, 'the +Inf bucket is missing or differs from _count')
    json.dump({'types': types, 'samples': samples}, sys.stdout)


main()
