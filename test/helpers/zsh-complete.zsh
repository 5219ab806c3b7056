# Usage: zsh -f zsh-complete.zsh FPATH_DIR CAPTURE LINE
# Runs an interactive `zsh -f` in a pseudo-terminal (zsh/zpty) with FPATH_DIR in $fpath and
# compinit, types LINE and Tab. Tab runs the real completion system (complete-word), then prints
# a marker with the edited line so that this driver knows it is done. Every compadd call that
# adds matches is recorded in CAPTURE (after matching against what was typed); the line after
# Tab goes to CAPTURE.buffer.
zmodload zsh/zpty || exit 3
local dir=$1 capture=$2 line=$3 out
: >| $capture
zpty z zsh -f -i || exit 4
zpty -w z "PS1='%% '; fpath=(${(q)dir} \$fpath); autoload -Uz compinit; compinit -u -D"
zpty -w z "unsetopt autolist listambiguous; setopt nobeep"
zpty -w z 'compadd() { if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "$@"; return $?; fi; local -a __hits; builtin compadd -A __hits "$@"; (( $#__hits )) && print -rl -- $__hits >> '${(q)capture}'; builtin compadd "$@"; }'
zpty -w z "__t() { zle complete-word; print -r -- __paycli_comp''leted:\$BUFFER: > \$TTY; }; zle -N __t; bindkey '^I' __t"
zpty -w z "print -r -- __paycli''_ready"
zpty -r z out '*__paycli_ready*' || exit 5
zpty -w -n z "$line"$'\t'
zpty -r z out '*__paycli_completed:*:*' || exit 6
zpty -d z
out=${out##*__paycli_completed:}
print -r -- "${out%:*}" >| $capture.buffer
