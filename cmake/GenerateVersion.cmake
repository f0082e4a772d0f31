# Writes OUTPUT, a header defining BLK_GIT_REVISION (the source tree's
# commit; with uncommitted changes or untracked files "-dirty-" and a hash
# of them, so that the kernel cache tells two edits of one commit apart;
# "unknown" outside git),
# only when it changes, so that a build that changes nothing rebuilds
# nothing. Run at every build: cmake -DSOURCE_DIR=... -DOUTPUT=... -P this.
execute_process(
  COMMAND git -C "${SOURCE_DIR}" describe --always --dirty --abbrev=12
  OUTPUT_VARIABLE revision
  OUTPUT_STRIP_TRAILING_WHITESPACE
  ERROR_QUIET
  RESULT_VARIABLE failed)
if(failed OR revision STREQUAL "")
  set(revision "unknown")
else()
  # Untracked files count as changes too (a new source file not added yet).
  execute_process(
    COMMAND git -C "${SOURCE_DIR}" ls-files --others --exclude-standard
    OUTPUT_VARIABLE untracked
    OUTPUT_STRIP_TRAILING_WHITESPACE
    ERROR_QUIET)
  if(untracked AND NOT revision MATCHES "-dirty$")
    set(revision "${revision}-dirty")
  endif()
endif()
if(revision MATCHES "-dirty$")
  execute_process(
    COMMAND git -C "${SOURCE_DIR}" diff HEAD
    OUTPUT_VARIABLE changes
    ERROR_QUIET)
  string(REPLACE "\n" ";" untracked "${untracked}")
  foreach(file ${untracked})
    if(EXISTS "${SOURCE_DIR}/${file}" AND NOT IS_DIRECTORY "${SOURCE_DIR}/${file}")
      file(SHA256 "${SOURCE_DIR}/${file}" fileHash)
      string(APPEND changes "\n${file} ${fileHash}")
    endif()
  endforeach()
  string(SHA256 changesHash "${changes}")
  string(SUBSTRING "${changesHash}" 0 12 changesHash)
  set(revision "${revision}-${changesHash}")
endif()
set(text "#define BLK_GIT_REVISION \"${revision}\"\n")
if(EXISTS "${OUTPUT}")
  file(READ "${OUTPUT}" previous)
endif()
if(NOT "${previous}" STREQUAL "${text}")
  file(WRITE "${OUTPUT}" "${text}")
endif()
