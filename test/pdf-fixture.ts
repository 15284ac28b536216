// A PDF written by hand (ISO 32000-1 7.5: header, objects, cross-reference table, trailer), for the page-count
// and integrity tests: `n` pages, a stream of `padding` bytes before them, and startxref moved back by
// `xrefShift` bytes to make a damaged file (0: a sound one).
export function handMadePdf(n: number, padding = 0, xrefShift = 0): Buffer {
  const objects = ['<< /Type /Catalog /Pages 2 0 R >>', `<< /Type /Pages /Kids [${Array.from({ length: n }, (_, k) => `${k + 4} 0 R`).join(' ')}] /Count ${n} >>`, `<< /Length ${padding} >>\nstream\n${'0'.repeat(padding)}\nendstream`];
  for (let k = 0; k < n; k++) objects.push('<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>');
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, k) => {
    offsets.push(out.length);
    out += `${k + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref - xrefShift}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}
