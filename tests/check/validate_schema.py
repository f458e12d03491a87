#!/usr/bin/env python3
"""Validates YAML files against contracts/contract.schema.json (JSON Schema draft 2020-12).

usage: validate_schema.py SCHEMA --valid FILE... --invalid FILE...
Exit 0 when every --valid file validates and every --invalid file does not; 1 otherwise;
77 when python3-jsonschema or python3-yaml is missing (the caller skips).
"""
import json
import sys

try:
    import jsonschema
    import yaml
except ImportError as missing:
    print(f"skip: {missing}")
    sys.exit(77)


def main(argv):
    schema = json.load(open(argv[0]))
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    expect_valid, failures = True, 0
    for arg in argv[1:]:
        if arg in ("--valid", "--invalid"):
            expect_valid = arg == "--valid"
            continue
        errors = [e.message for e in validator.iter_errors(yaml.safe_load(open(arg)))]
        if bool(errors) == expect_valid:
            failures += 1
            print(f"{arg}: expected {'valid' if expect_valid else 'invalid'}, got {errors or 'valid'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
