# shellcheck shell=bash
# The static body of paycli's bash completion (src/cli/completion/bash.ts puts the generated data in
# front of it: __paycli_spec, __paycli_values and __paycli_profile_names). Linted by shellcheck
# (test/e2e/completion-lint.test.ts).

# COMPREPLY = the lines of stdin.
__paycli_reply() {
  local line
  COMPREPLY=()
  while IFS= read -r line; do COMPREPLY+=("$line"); done
}

# __paycli_words WORDS CUR: the words starting with CUR; a single prefix ending in "." gets no space.
__paycli_words() {
  __paycli_reply < <(compgen -W "$1" -- "$2")
  if [[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == *. ]]; then compopt -o nospace 2>/dev/null; fi
  return 0
}

# __paycli_lines CUR: the lines of stdin starting with CUR.
__paycli_lines() {
  local line
  COMPREPLY=()
  while IFS= read -r line; do [[ $line == "$1"* ]] && COMPREPLY+=("$line"); done
  return 0
}

__paycli_files() {
  compopt -o filenames 2>/dev/null
  __paycli_reply < <(compgen -f -- "$1")
}

# The path of paycli's config file (as src/core/paths.ts computes it).
__paycli_config_file() {
  if [[ -n ${PAYCLI_CONFIG_DIR-} ]]; then printf '%s\n' "$PAYCLI_CONFIG_DIR/config.json"
  elif [[ ${OSTYPE-} == darwin* ]]; then printf '%s\n' "$HOME/Library/Preferences/paycli/config.json"
  else printf '%s\n' "${XDG_CONFIG_HOME:-$HOME/.config}/paycli/config.json"; fi
}

# The profile names in the config file, one a line.
__paycli_profiles() {
  local f
  f=$(__paycli_config_file)
  [[ -r $f ]] || return 0
  __paycli_profile_names "$f" 2>/dev/null
}

_paycli() {
  # Re-join "--flag=value", which bash splits at "=" (COMP_WORDBREAKS).
  local -a words=()
  local cword=0 i w n joined=0
  for ((i = 0; i < ${#COMP_WORDS[@]}; i++)); do
    w=${COMP_WORDS[i]}
    n=${#words[@]}
    if [[ $w == = && $n -gt 0 && ${words[n-1]} == --* && ${words[n-1]} != *=* ]]; then
      words[n-1]+='='; joined=1
    elif ((joined)) && ((i <= COMP_CWORD)) && [[ ${COMP_WORDS[i-1]} == = ]]; then
      words[n-1]+=$w; joined=0
    else
      words+=("$w"); joined=0
    fi
    ((i == COMP_CWORD)) && cword=$((${#words[@]} - 1))
  done
  local cur=${words[cword]} path='' npos=0 expect='' subs flags vflags varg
  __paycli_spec ''
  for ((i = 1; i < cword; i++)); do
    w=${words[i]}
    if [[ -n $expect ]]; then expect=''; continue; fi
    case $w in
      -*)
        if [[ $w != *=* && " $vflags " == *" $w "* ]]; then expect=$w; fi ;;
      *)
        if ((npos == 0)) && [[ " $subs " == *" $w "* ]]; then
          path=${path:+$path }$w
          __paycli_spec "$path"
        else
          npos=$((npos + 1))
        fi ;;
    esac
  done
  COMPREPLY=()
  if [[ -n $expect ]]; then
    __paycli_values "$path" "$expect" "$cur"
  elif [[ $cur == --*=* ]]; then
    __paycli_values "$path" "${cur%%=*}" "${cur#*=}"
    if [[ ${COMP_WORDS[COMP_CWORD]} == --*=* ]]; then COMPREPLY=("${COMPREPLY[@]/#/${cur%%=*}=}"); fi
  elif [[ $cur == -* ]]; then
    __paycli_words "$flags" "$cur"
  elif ((npos == 0)) && [[ -n $subs ]]; then
    __paycli_words "$subs" "$cur"
  else
    if [[ -n $varg ]] && ((npos > varg)); then npos=$varg; fi
    __paycli_values "$path" "#$npos" "$cur"
  fi
  return 0
}

complete -F _paycli paycli
