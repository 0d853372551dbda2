from miniconf.env import expand_env

env = {"HOME": "/home/me", "PORT": "80"}
assert expand_env("${HOME}/x:${PORT}", env) == "/home/me/x:80"
assert expand_env("${MISSING:-dflt}", env) == "dflt"
assert expand_env("${MISSING}", env) == "${MISSING}"
print("ok")
