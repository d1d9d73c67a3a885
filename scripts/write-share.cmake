# Writes the man page and the shell completions by asking the odds binary (ODDS) for them, into
# the folder SHARE: cmake -DODDS=... -DSHARE=... -P write-share.cmake
file(MAKE_DIRECTORY ${SHARE})
foreach(pair "odds.1;man" "odds.bash;completion;bash" "_odds;completion;zsh")
  list(POP_FRONT pair file)
  execute_process(COMMAND ${ODDS} ${pair} OUTPUT_FILE ${SHARE}/${file} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "odds ${pair} failed (${rc})")
  endif()
endforeach()
