"""A JMF sender written with Python's standard library only, as an MIS might be: email builds the MIME
multipart/related package (RFC 2387), http.client POSTs it, xml.parsers.expat reads the JMF Response.

    python3 jmf_client.py HOST PORT

Sends a clean submission and one with a broken FileSpec, checks what comes back against the JDF spec's ReturnCode
table (0 accepted, 200 invalid Resource parameters) and against where this file puts the broken URL, prints what it got as
JSON, and exits 1 on the first mismatch."""
import http.client
import json
import sys
import xml.parsers.expat
from email.encoders import encode_7or8bit
from email.mime.application import MIMEApplication
from email.mime.multipart import MIMEMultipart
from email.policy import HTTP

JDF_NS = "http://www.CIP4.org/JDFSchema_1_1"

JMF = f"""<?xml version="1.0" encoding="UTF-8"?>
<JMF xmlns="{JDF_NS}" SenderID="python-mis" Version="1.4">
  <Command ID="{{command_id}}" Type="SubmitQueueEntry">
    <QueueSubmissionParams URL="cid:ticket@python.example" ReturnJMF="http://mis.example/jmf"/>
  </Command>
</JMF>
"""


def jdf(url):
    return "\n".join([
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<JDF xmlns="{JDF_NS}" ID="n1" Type="Product" JobID="PY" Version="1.4" Status="Waiting">',
        "  <ResourcePool>",
        '    <RunList ID="RL1" Class="Parameter" Status="Available">',
        f'      <LayoutElement><FileSpec URL="{url}"/></LayoutElement>',
        "    </RunList>",
        "  </ResourcePool>",
        "</JDF>",
        "",
    ])


def package(ticket, command_id):
    """RFC 2387: multipart/related, its root (start) the JMF, the JDF a part named by Content-ID. Each submission
    has its own Command ID (JDF 1.x: a message's ID is unique for its sender; serve answers a repeat of one with
    its first answer)."""
    root = MIMEApplication(JMF.replace("{command_id}", command_id).encode(), "vnd.cip4-jmf+xml", _encoder=encode_7or8bit)
    root["Content-ID"] = "<submit@python.example>"
    part = MIMEApplication(ticket.encode(), "vnd.cip4-jdf+xml")  # base64, email's default
    part["Content-ID"] = "<ticket@python.example>"
    pdf = MIMEApplication(b"%PDF-1.4\n%%EOF\n", "pdf")
    pdf["Content-ID"] = "<book@python.example>"
    msg = MIMEMultipart("related", type="application/vnd.cip4-jmf+xml", start="<submit@python.example>")
    for p in (root, part, pdf):
        msg.attach(p)
    whole = msg.as_bytes(policy=HTTP)
    head, _, body = whole.partition(b"\r\n\r\n")
    content_type = " ".join(line.strip() for line in msg["Content-Type"].splitlines())
    return content_type, body


def read_response(data):
    """expat: each Response's ReturnCode, each Notification's Class and our jfs: attributes, and the Comments."""
    out = {"returnCodes": [], "notifications": [], "comments": []}
    stack = []

    def start(name, attrs):
        local = name.rsplit(" ", 1)[-1]
        stack.append(local)
        if local == "Response":
            out["returnCodes"].append(int(attrs["ReturnCode"]))
        if local == "Notification":
            out["notifications"].append({k.rsplit(" ", 1)[-1]: v for k, v in attrs.items()})

    def chars(text):
        if stack and stack[-1] == "Comment":
            out["comments"].append(text)

    parser = xml.parsers.expat.ParserCreate(namespace_separator=" ")
    parser.StartElementHandler = start
    parser.EndElementHandler = lambda name: stack.pop()
    parser.CharacterDataHandler = chars
    parser.Parse(data, True)
    return out


def post(host, port, content_type, body):
    conn = http.client.HTTPConnection(host, port, timeout=30)
    conn.request("POST", "/jmf", body=body, headers={"Content-Type": content_type})
    answer = conn.getresponse()
    data = answer.read()
    conn.close()
    return answer.status, answer.getheader("Content-Type"), data


def main():
    host, port = sys.argv[1], int(sys.argv[2])
    got = {}
    ok = True

    status, ctype, data = post(host, port, *package(jdf("cid:book@python.example"), "PY1"))
    clean = read_response(data)
    got["clean"] = {"status": status, "contentType": ctype, **clean}
    ok &= status == 200 and ctype.startswith("application/vnd.cip4-jmf+xml") and clean["returnCodes"] == [0] and clean["notifications"] == []

    # RFC 3986 2: a space may not stand in a URL. The FileSpec is line 5 of the JDF part; the column is the space's.
    broken = "file:///c:/jobs/my book.pdf"
    text = jdf(broken)
    line = text.split("\n")[4]
    column = line.index(" book") + 1
    status, ctype, data = post(host, port, *package(text, "PY2"))
    refused = read_response(data)
    got["broken"] = {"status": status, "expectLine": 5, "expectColumn": column, **refused}
    ok &= status == 200 and refused["returnCodes"] == [200]
    ok &= any(n.get("Class") == "Error" and n.get("Line") == "5" and n.get("Column") == str(column) for n in refused["notifications"])

    print(json.dumps(got, indent=1))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
