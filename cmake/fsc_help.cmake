# SPDX-License-Identifier: MIT
# Reading the program's own help at build time (for the man page and the shell
# completions): included by manpage.cmake and completions.cmake; FIOSCOPE is set.

# The output of `fioscope ARGS...` in out; stops the build when it fails.
function(fsc_help_run out)
  execute_process(COMMAND ${FIOSCOPE} ${ARGN} OUTPUT_VARIABLE o RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "fioscope ${ARGN} failed")
  endif()
  set(${out} "${o}" PARENT_SCOPE)
endfunction()

# text as a CMake list of its lines. The characters a CMake list reads as syntax
# (";" and unbalanced brackets) become tokens; fsc_help_restore turns them back.
function(fsc_help_lines text out)
  string(REPLACE ";" "@SEMI@" text "${text}")
  string(REPLACE "[" "@LBR@" text "${text}")
  string(REPLACE "]" "@RBR@" text "${text}")
  string(REPLACE "\n" ";" lines "${text}")
  set(${out} "${lines}" PARENT_SCOPE)
endfunction()

function(fsc_help_restore in out)
  string(REPLACE "@SEMI@" ";" s "${in}")
  string(REPLACE "@LBR@" "[" s "${s}")
  string(REPLACE "@RBR@" "]" s "${s}")
  set(${out} "${s}" PARENT_SCOPE)
endfunction()

# The commands listed by `fioscope --help` ("help" left out).
function(fsc_help_commands out)
  fsc_help_run(top --help)
  string(REGEX MATCH "commands:\n(.*)\n\n" block "${top}")
  fsc_help_lines("${CMAKE_MATCH_1}" lines)
  set(cmds "")
  foreach(l IN LISTS lines)
    if(l MATCHES "^  ([a-z]+) " AND NOT CMAKE_MATCH_1 STREQUAL "help")
      list(APPEND cmds ${CMAKE_MATCH_1})
    endif()
  endforeach()
  set(${out} "${cmds}" PARENT_SCOPE)
endfunction()
