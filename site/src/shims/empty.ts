// Nothing: whatwg-url loads the legacy multi-byte encodings for this, which the URL class never uses.
