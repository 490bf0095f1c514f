# SPDX-License-Identifier: MIT
# Writes OUT, a C file holding the bytes of IN (openapi.yaml) as an array,
# for GET /openapi.yaml. Run at build time: cmake -DIN=... -DOUT=... -P.
# A byte array rather than a string literal: -Wpedantic rejects literals
# longer than 4095 characters.
if(EXISTS "${IN}")
  file(READ "${IN}" hex HEX)
  file(SIZE "${IN}" size)
else()
  set(text "openapi: 3.1.0\ninfo:\n  title: puzzled\n  version: unknown\n  description: openapi.yaml was missing at build time\npaths: {}\n")
  string(LENGTH "${text}" size)
  file(WRITE "${OUT}.tmp" "${text}")
  file(READ "${OUT}.tmp" hex HEX)
  file(REMOVE "${OUT}.tmp")
endif()
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" bytes "${bytes}")
file(WRITE "${OUT}.new"
  "/* SPDX-License-Identifier: MIT */\n"
  "/* Generated from openapi.yaml by server/embed.cmake; do not edit. */\n"
  "#include \"openapi.h\"\n\n"
  "const unsigned char openapi_yaml_data[] = {\n${bytes}0x00 };\n"
  "const size_t openapi_yaml_size = ${size};\n")
execute_process(COMMAND "${CMAKE_COMMAND}" -E copy_if_different "${OUT}.new" "${OUT}")
file(REMOVE "${OUT}.new")
