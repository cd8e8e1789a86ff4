// placeholder: the bench command is built by its issue.
import { CliError, type Command } from "./common.js";

const command: Command = {
  async run() {
    throw new CliError("bench: not implemented yet");
  },
};
export default command;
