# bash completion for hopsplit(1).
# The option lists mirror the option table (src/config/options.c); the
# test tests/docs/report_completions.sh fails when they drift apart.  Plain
# bash: no extglob, no bash-completion package needed; "--format=<Tab>"
# completes as "--format <Tab>" does.

_hopsplit()
{
  local cur prev words cword
  if declare -F _init_completion >/dev/null 2>&1; then
    _init_completion || return
  else
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD - 1]}
    words=("${COMP_WORDS[@]}")
    cword=$COMP_CWORD
  fi

  local opts="--baseline --brief --cacert --capath --cert --client-location --color
    --compare --compressed --connect-timeout --data --data-binary --data-raw
    --dns-server --dry-run --dump-header --fail --format --head --header
    --help --http1.1 --http2 --http3 --http3-only --include --insecure --ipv4
    --ipv6 --json
    --keep-interfered --key --location --location-trusted --max-redirs --max-time
    --mode --no-follow --order --output --parallel --pause --payload-size
    --post301 --post302
    --post303 --prime --progress --project --protocols --quiet
    --request --resolve --rounds --seed --show-error --show-secrets
    --silent --trace --upload-file --user-agent --vantage --verbose --version --write-out"
  local report_opts="--brief --color --format --help --output --payload-size
    --project
    --quiet --verbose"
  local serve_opts="--config --listen --max-concurrent --timeout-offset"
  local formats="text json ndjson csv har html prom junit"

  # --opt=value: bash splits the word at '=' (COMP_WORDBREAKS), or keeps
  # it whole (_init_completion -n =); either way complete the value.
  if [[ $cur == --*=* ]]; then
    prev=${cur%%=*}
    cur=${cur#*=}
  elif [[ $cur == = ]]; then
    prev=${words[cword - 1]}
    cur=
  elif [[ $prev == = && $cword -ge 2 ]]; then
    prev=${words[cword - 2]}
  fi

  case $prev in
    --format)
      COMPREPLY=($(compgen -W "$formats" -- "$cur"))
      return
      ;;
    --color | --progress | --trace)
      COMPREPLY=($(compgen -W "auto always never" -- "$cur"))
      return
      ;;
    --order)
      COMPREPLY=($(compgen -W "rotate shuffle fixed" -- "$cur"))
      return
      ;;
    --compare)
      COMPREPLY=($(compgen -W "all" -- "$cur"))
      return
      ;;
    --mode)
      COMPREPLY=($(compgen -W "cold warm resumed cold,warm cold,warm,resumed" \
        -- "$cur"))
      return
      ;;
    -o | --output | --cacert | --config | -T | --upload-file | -E | --cert | \
      --key)
      COMPREPLY=($(compgen -f -- "$cur"))
      return
      ;;
    -d | --data | --data-binary | --json)
      # @FILE
      if [[ $cur == @* ]]; then
        COMPREPLY=($(compgen -f -P @ -- "${cur#@}"))
      fi
      return
      ;;
    --capath)
      COMPREPLY=($(compgen -d -- "$cur"))
      return
      ;;
    -X | --request)
      COMPREPLY=($(compgen -W "GET HEAD POST PUT DELETE OPTIONS" -- "$cur"))
      return
      ;;
    -H | --header | -A | --user-agent | --resolve | --dns-server | \
      --client-location | --connect-timeout | -m | --max-time | \
      --max-redirs | -n | --rounds | --seed | --pause | --parallel | \
      --payload-size | \
      --vantage | --listen | --max-concurrent | --timeout-offset | --data-raw | \
      -w | --write-out)
      return
      ;;
  esac

  if [[ $cword -eq 1 && $cur != -* ]]; then
    COMPREPLY=($(compgen -W "run report serve merge help" -- "$cur"))
    return
  fi
  case ${words[1]} in
    report | merge)
      if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$report_opts" -- "$cur"))
      else
        COMPREPLY=($(compgen -f -X '!*.json' -- "$cur") \
          $(compgen -d -- "$cur"))
      fi
      return
      ;;
    serve)
      if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$opts $serve_opts" -- "$cur"))
      fi
      return
      ;;
    help)
      [[ $cword -eq 2 ]] &&
        COMPREPLY=($(compgen -W "run report merge serve" -- "$cur"))
      return
      ;;
    run)
      if [[ $cur != -* ]]; then
        COMPREPLY=($(compgen -f -X '!*.yaml' -- "$cur")
          $(compgen -f -X '!*.yml' -- "$cur") $(compgen -d -- "$cur"))
        return
      fi
      ;;
  esac
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
  fi
}
complete -F _hopsplit hopsplit
