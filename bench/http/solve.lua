-- SPDX-License-Identifier: MIT
-- solve.lua - wrk script: POST one fixed JSON body over keep-alive.
-- Usage: wrk ... -s solve.lua URL -- BODY_FILE   (load.sh writes the files)
local req

function init(args)
   local f = assert(io.open(args[1], "rb"), "usage: -- BODY_FILE")
   local body = f:read("*a")
   f:close()
   req = wrk.format("POST", nil, { ["Content-Type"] = "application/json" },
                    body)
end

function request()
   return req
end
