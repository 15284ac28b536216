#!/usr/bin/env python3
"""Builds job packages with Python's own email and zipfile modules, an implementation independent of ours,
and writes a manifest of every part's decoded bytes (length and SHA-256) as Python reads them back.

Usage: python3 test/package_fixtures.py OUT_DIR
"""
import hashlib
import json
import os
import sys
import zipfile
from email import encoders, policy
from email.mime.application import MIMEApplication
from email.mime.image import MIMEImage
from email.mime.multipart import MIMEMultipart
from email.parser import BytesParser

out = sys.argv[1]
os.makedirs(out, exist_ok=True)

JDF = b'''<?xml version="1.0" encoding="UTF-8"?>
<!-- Auftrag f\xc3\xbcr M\xc3\xbcller = quoted-printable -->
<JDF xmlns="http://www.CIP4.org/JDFSchema_1_1" ID="n1" Type="Product" Version="1.4">
  <ResourcePool>
    <RunList ID="RL1" Class="Parameter">
      <LayoutElement><FileSpec URL="cid:book.pdf@py.example" MimeType="application/pdf"/></LayoutElement>
    </RunList>
    <ColorSpaceConversionParams ID="C1" Class="Parameter"><FileSpec URL="cid:preview%20one@py.example"/></ColorSpaceConversionParams>
  </ResourcePool>
</JDF>
'''
PDF = b'%PDF-1.7\n' + bytes(range(256)) * 40 + b'\n--not-a-boundary\r\n%%EOF\n'
PNG = b'\x89PNG\r\n\x1a\n' + b'\x00\x00\x00\rIHDR' + bytes(range(200))


def mime(linesep):
    msg = MIMEMultipart('related', type='application/vnd.cip4-jdf+xml', start='<jdf@py.example>')
    ticket = MIMEApplication(JDF, 'vnd.cip4-jdf+xml', _encoder=encoders.encode_quopri)
    ticket['Content-ID'] = '<jdf@py.example>'
    pdf = MIMEApplication(PDF, 'pdf')  # base64
    pdf['Content-ID'] = '<book.pdf@py.example>'
    png = MIMEImage(PNG, 'png')  # base64
    png['Content-ID'] = '<preview one@py.example>'
    for part in (ticket, pdf, png):
        msg.attach(part)
    return msg.as_bytes(policy=policy.default.clone(linesep=linesep))


manifest = {}
for name, linesep in (('python-crlf.mjm', '\r\n'), ('python-lf.mjm', '\n')):
    data = mime(linesep)
    with open(os.path.join(out, name), 'wb') as f:
        f.write(data)
    parsed = BytesParser(policy=policy.default).parsebytes(data)
    manifest[name] = [
        {'id': p['Content-ID'].strip('<>'), 'size': len(p.get_payload(decode=True)), 'sha256': hashlib.sha256(p.get_payload(decode=True)).hexdigest()}
        for p in parsed.iter_parts()
    ]

XJDF = b'''<?xml version="1.0" encoding="UTF-8"?>
<XJDF xmlns="http://www.CIP4.org/JDFSchema_2_0" JobID="py1" Types="Product">
  <ResourceSet Name="RunList" Usage="Input"><Resource><RunList><FileSpec URL="content/book.pdf"/></RunList></Resource><Resource><RunList><FileSpec URL="%EF%BB%BFcover.pdf"/></RunList></Resource></ResourceSet>
  <ResourceSet Name="Preview" Usage="Input"><Resource><Preview><FileSpec URL="previews/p%201.png"/></Preview></Resource></ResourceSet>
</XJDF>
'''
with zipfile.ZipFile(os.path.join(out, 'python.zip'), 'w', compression=zipfile.ZIP_DEFLATED) as z:
    z.writestr('job.xjdf', XJDF)
    z.writestr('content/book.pdf', PDF)
    z.writestr(zipfile.ZipInfo('previews/p 1.png'), PNG)  # stored
    z.writestr('\ufeffcover.pdf', PDF)  # a name that starts with U+FEFF: the UTF-8 flag set, no byte-order mark
with zipfile.ZipFile(os.path.join(out, 'python.zip')) as z:
    manifest['python.zip'] = [{'id': i.filename, 'size': len(z.read(i)), 'sha256': hashlib.sha256(z.read(i)).hexdigest()} for i in z.infolist()]

with open(os.path.join(out, 'manifest.json'), 'w') as f:
    json.dump(manifest, f, indent=1)
