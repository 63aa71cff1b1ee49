// Rule: a model the database does not know keeps its code, and its maker is named from the code.

import { modelMaker } from "./model-vendors.js";
import { decidedSpecificDevice, requestModel } from "./reply-facts.js";
import type { Rule, RuleChange } from "./rule.js";

/** Huawei's and Honor's user-agents name the maker in the build (`Build/HUAWEIVOG-L29`, `Build/HONORRMO-NX1`). */
const BUILD_MAKER = /Build\/(HUAWEI|HONOR)/i;

/**
 * When the reply names no specific device (a catch-all such as "Generic Android Mobile") but the
 * request names a model (`Sec-CH-UA-Model`, else the user-agent's model), reports that model
 * code as `general_model`, and names `general_vendor` from the code (see `modelMaker`) or from a
 * Huawei/Honor build tag. With no maker known, the vendor stays as the reply had it.
 */
export const unknownModel: Rule = {
  name: "unknown-model",
  apply(reply, evidence): RuleChange | undefined {
    if (decidedSpecificDevice(reply, evidence)) return undefined;
    const code = requestModel(evidence);
    if (code === undefined) return undefined;
    const maker = modelMaker(code);
    const build = BUILD_MAKER.exec(evidence.userAgent)?.[1];
    const vendor =
      build !== undefined && (maker === undefined || maker.vendor === "Huawei" || maker.vendor === "Honor")
        ? build.toUpperCase() === "HONOR"
          ? "Honor"
          : "Huawei"
        : maker?.vendor;
    const model = maker?.model ?? code;
    const specs = reply.hd_specs;
    if (specs?.general_model === model && (vendor === undefined || specs.general_vendor === vendor))
      return undefined;
    return {
      specs:
        vendor === undefined ? { general_model: model } : { general_vendor: vendor, general_model: model },
    };
  },
};
