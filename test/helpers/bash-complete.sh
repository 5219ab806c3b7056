# Usage: bash --norc --noprofile bash-complete.sh SCRIPT LINE
# Sources paycli's bash completion script, finds the function `complete -p paycli` names and calls
# it as readline does for Tab at the end of LINE; prints COMPREPLY, one a line.
source "$1" || exit 3
spec=$(complete -p paycli) || exit 4
fn=${spec##*-F }; fn=${fn%% *}
COMP_LINE=$2; COMP_POINT=${#COMP_LINE}; COMP_TYPE=9; COMP_KEY=9
read -ra COMP_WORDS <<<"$COMP_LINE"
if [[ $COMP_LINE == *' ' ]]; then COMP_WORDS+=(''); fi
COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
COMPREPLY=()
"$fn" paycli "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}" || exit 5
if [[ ${#COMPREPLY[@]} -gt 0 ]]; then printf '%s\n' "${COMPREPLY[@]}"; fi
