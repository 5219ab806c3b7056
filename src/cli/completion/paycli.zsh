# The static body of paycli's zsh completion (src/cli/completion/zsh.ts puts the generated data in
# front of it: __paycli_spec, __paycli_values and __paycli_profile_names). shellcheck does not read
# zsh; the syntax is checked with `zsh -n` (test/e2e/completion-lint.test.ts).

# The path of paycli's config file (as src/core/paths.ts computes it).
__paycli_config_file() {
  if [[ -n ${PAYCLI_CONFIG_DIR-} ]]; then print -r -- "$PAYCLI_CONFIG_DIR/config.json"
  elif [[ $OSTYPE == darwin* ]]; then print -r -- "$HOME/Library/Preferences/paycli/config.json"
  else print -r -- "${XDG_CONFIG_HOME:-$HOME/.config}/paycli/config.json"; fi
}

# The profile names in the config file, one a line.
__paycli_profiles() {
  local f=$(__paycli_config_file)
  [[ -r $f ]] || return 0
  __paycli_profile_names "$f" 2>/dev/null
}

_paycli() {
  local cmdpath='' w expect='' i npos=0 flag varg
  local -a subnames subs flags vflags
  __paycli_spec ''
  for (( i = 2; i < CURRENT; i++ )); do
    w=${words[i]}
    if [[ -n $expect ]]; then expect=''; continue; fi
    case $w in
      -*)
        if [[ $w != *=* ]] && (( ${vflags[(Ie)$w]} )); then expect=$w; fi ;;
      *)
        if (( npos == 0 && ${subnames[(Ie)$w]} )); then
          cmdpath=${cmdpath:+$cmdpath }$w
          __paycli_spec "$cmdpath"
        else
          (( npos++ ))
        fi ;;
    esac
  done
  if [[ -n $expect ]]; then
    __paycli_values "$cmdpath" "$expect"
  elif [[ $PREFIX == --*=* ]]; then
    flag=${PREFIX%%=*}
    compset -P 1 '*='
    __paycli_values "$cmdpath" "$flag"
  elif [[ $PREFIX == -* ]]; then
    _describe -t options 'option' flags
  elif (( npos == 0 && ${#subnames} )); then
    _describe -t commands 'command' subs
  else
    if [[ -n $varg ]] && (( npos > varg )); then npos=$varg; fi
    __paycli_values "$cmdpath" "#$npos"
  fi
}

if [[ ${zsh_eval_context[-1]} == loadautofunc ]]; then
  _paycli "$@"
else
  compdef _paycli paycli
fi
