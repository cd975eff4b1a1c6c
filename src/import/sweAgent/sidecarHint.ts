/** What to do about an `args.yaml` beside a SWE-agent trajectory that is not the one SWE-agent wrote (no YAML parser loaded for it). */
export const SIDECAR_HINT = 'the args.yaml beside a SWE-agent trajectory must be the file SWE-agent wrote: restore it or remove it and name the model in the file name';
