/// A zsh script that types a command line and Tab into an interactive zsh on a pseudo-terminal
/// (zpty), with the completion system on and `compadd` wrapped to print what it adds: one
/// candidate per line. Usage: `zsh -f capture.zsh FUNCTIONS_FOLDER 'command line'`.
enum ZshCapture {
  static let script = #"""
    zmodload zsh/zpty
    zpty z zsh -f -i
    zpty -w z "PROMPT= RPROMPT=; fpath=($1 \$fpath); autoload -U compinit; compinit -u -D"
    zpty -w z 'compadd() { builtin compadd "$@"; local -a m; builtin compadd -O m "$@"; print -rl -- "CA""ND:"${^m}; }'
    zpty -w z 'comppostfuncs=(done_); done_() { print -r -- "EN""D-OF-CANDIDATES" }'
    zpty -w z "$2"$'\t'
    local line out=""
    integer n=0
    while (( ++n < 400 )); do
      if zpty -r -t z line; then
        out+=$line
        [[ $out == *END-OF-CANDIDATES* ]] && break
      else
        sleep 0.05
      fi
    done
    zpty -d z
    print -r -- $out | tr -d '\r' | grep -o 'CAND:[^[:space:]]*' | sed 's/^CAND://' | sort -u
    """#
}
