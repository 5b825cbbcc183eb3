"""``occli complete``: the bash completion script, cloud names included.

cliff's ``complete`` (as in OSC's ``openstack complete``) completes command
names and each command's options. occli's script also completes
``--os-cloud <TAB>`` with the cloud names of clouds.yaml, found by running
``occli complete --cloud-names`` (which reads the files and sends no
request), the global options, and command names after global options.
It needs no bash-completion package (it uses it when loaded).
"""

from cliff import command
from cliff import complete

_HEADER = r"""_{fn}()
{{
  local cur prev words cword
  COMPREPLY=()
  if declare -F _get_comp_words_by_ref >/dev/null ; then
    _get_comp_words_by_ref -n : cur prev words cword
  else
    words=("${{COMP_WORDS[@]}}")
    cword=${{COMP_CWORD}}
    cur="${{COMP_WORDS[COMP_CWORD]}}"
    prev="${{COMP_WORDS[COMP_CWORD-1]}}"
  fi

  # --os-cloud <TAB> or --os-cloud=<TAB>: the clouds of clouds.yaml, read
  # by "{name} complete --cloud-names" (no request, no token)
  local opt="${{prev}}"
  if [[ ${{prev}} == = && ${{cword}} -ge 2 ]] ; then
    opt="${{words[cword-2]}}"
  fi
  if [[ ${{opt}} == --os-cloud ]] ; then
    local IFS=$'\n'
    COMPREPLY=( $(compgen -W "$("${{COMP_WORDS[0]}}" complete --cloud-names 2>/dev/null)" \
      -- "${{cur}}") )
    return 0
  fi

  # Command data:
"""

_TRAILER = r"""
  # the global options (and their values) in front of the command
  local i=1
  while [[ ${{i}} -lt ${{cword}} && ${{words[i]}} == -* ]] ; do
    if [[ ${{words[i+1]}} == = ]] ; then
      i=$((i+2))
    elif [[ " ${{global_opts_with_value}} " == *" ${{words[i]}} "* ]] ; then
      i=$((i+1))
    fi
    i=$((i+1))
  done
  if [[ ${{i}} -ge ${{cword}} && ${{cur}} == -* ]] ; then
    COMPREPLY=( $(compgen -W "${{global_opts}}" -- "${{cur}}") )
    return 0
  fi

  local dash=- underscore=_ cmd="" completed="${{cmds}}" var proposed comp
  for var in "${{words[@]:i}}"
  do
    if [[ ${{var}} == -* ]] ; then
      break
    fi
    if [ -z "${{cmd}}" ] ; then
      proposed="${{var}}"
    else
      proposed="${{cmd}}_${{var}}"
    fi
    local v="cmds_${{proposed}}"
    v=${{v//$dash/$underscore}}
    comp="${{!v}}"
    if [ -z "${{comp}}" ] ; then
      break
    fi
    if [[ ${{comp}} == -* ]] ; then
      if [[ ${{cur}} != -* ]] ; then
        completed=""
        break
      fi
    fi
    cmd="${{proposed}}"
    completed="${{comp}}"
  done

  if [ -z "${{completed}}" ] ; then
    COMPREPLY=( $( compgen -f -- "$cur" ) $( compgen -d -- "$cur" ) )
  else
    COMPREPLY=( $(compgen -W "${{completed}}" -- ${{cur}}) )
  fi
  return 0
}}
complete -F _{fn} {name}
"""


class CompleteBash(complete.CompleteBash):
    """cliff's bash script, plus cloud names and the global options."""

    def __init__(self, name, output, global_parser=None):
        super().__init__(name, output)
        self.global_parser = global_parser

    def get_header(self):
        return _HEADER.format(fn=self.escaped_name, name=self.name)

    def get_trailer(self):
        options, with_value = [], []
        for action in getattr(self.global_parser, "_actions", ()):
            options.extend(action.option_strings)
            if action.nargs != 0:
                with_value.extend(action.option_strings)
        data = "  global_opts='%s'\n  global_opts_with_value='%s'\n" % (
            " ".join(options),
            " ".join(with_value),
        )
        return data + _TRAILER.format(fn=self.escaped_name, name=self.name)


class CompleteCommand(complete.CompleteCommand):
    """Print the bash completion script, or the cloud names it completes.

    The script completes command names, their options, the global options
    and the cloud names after --os-cloud. Install it with
    "occli complete > /etc/bash_completion.d/occli" or load it in a shell
    with "source <(occli complete)". --cloud-names prints the names of the
    clouds in clouds.yaml (and the local cloud's), one a line, without
    authenticating.

    Example: source <(occli complete)
    """

    def __init__(self, app, app_args):
        # cliff's own looks its shells up with stevedore (occli knows its
        # two) and, given a cmd_name, command hooks (occli has none); its
        # get_actions needs only the app (tests/unit/test_cliff_contract.py)
        command.Command.__init__(self, app, app_args)

    def get_parser(self, prog_name):
        parser = command.Command.get_parser(self, prog_name)
        parser.add_argument(
            "--name",
            default=None,
            metavar="<command_name>",
            help="Command name to support with command completion",
        )
        parser.add_argument(
            "--shell",
            default="bash",
            metavar="<shell>",
            choices=["bash", "none"],
            help="Shell being used. Use none for data only (default: bash)",
        )
        parser.add_argument(
            "--cloud-names",
            action="store_true",
            help="Print the cloud names of clouds.yaml, one a line (no request is sent).",
        )
        return parser

    def take_action(self, parsed_args):
        if parsed_args.cloud_names:
            from occli import config

            for name in config.cloud_names():
                self.app.stdout.write(name + "\n")
            return 0
        name = parsed_args.name or self.app.NAME
        shell: complete.CompleteShellBase
        if parsed_args.shell == "bash":
            shell = CompleteBash(name, self.app.stdout, self.app.parser)
        else:
            shell = complete.CompleteNoCode(name, self.app.stdout)
        dicto = complete.CompleteDictionary()
        for cmd in self.app.command_manager:
            words = cmd[0].split()
            dicto.add_command(words, self.get_actions(words))
        shell.write(dicto.get_commands(), dicto.get_data())
        return 0
