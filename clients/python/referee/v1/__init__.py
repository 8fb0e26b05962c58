"""Generated from proto/ by scripts/gen_stubs.py; do not edit."""
