# Sourced by the fake engines that play real moves by driving hnefi (otep_hnefi.sh,
# uci_hnefi.sh): starts hnefi ($1, the binary) as a coprocess and defines `ask`.
coproc H { "$1" 2>/dev/null; }
# Sends one command to hnefi and reads its reply up to the empty line; the first line
# is left in $first.
ask() {
  printf '%s\n' "$1" >&"${H[1]}"
  first=
  while IFS= read -r l <&"${H[0]}"; do
    [ -z "$l" ] && break
    [ -z "$first" ] && first=$l
  done
}
