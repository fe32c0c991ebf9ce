"""The ``process_docs`` of the TempVS variants this package adds to the paper's headline tasks (lmms_eval_tasks/tempvs):
CoT prompting (Table 6), separate images (Table 12), the text-only runs and the unfiltered questions (Tables 17-18), the
images-only MT3 (Table 19) and the grounding tests alone. Each YAML names its settings in its ``metadata``."""

from temporal_bench.lmms_eval_tasks.tempvs.docs import variant
from temporal_bench.lmms_eval_tasks.tempvs.utils import data_source, failed_count, gt_acc_first, invalid_rate  # noqa: F401 - the grounding template's aggregations

process_docs_tempvs_mt1_two_unfiltered = variant("tempvs_mt1_two_unfiltered", "mt1_two", blind_filter=False)
process_docs_tempvs_mt1_two_blind = variant("tempvs_mt1_two_blind", "mt1_two", mode="blind", visual="none", blind_filter=False)
process_docs_tempvs_mt1_two_cot = variant("tempvs_mt1_two_cot", "mt1_two", mode="cot")
process_docs_tempvs_mt1_two_separate = variant("tempvs_mt1_two_separate", "mt1_two", visual="separate")
process_docs_tempvs_mt1_three_unfiltered = variant("tempvs_mt1_three_unfiltered", "mt1_three", blind_filter=False)
process_docs_tempvs_mt1_three_blind = variant("tempvs_mt1_three_blind", "mt1_three", mode="blind", visual="none", blind_filter=False)
process_docs_tempvs_mt1_three_cot = variant("tempvs_mt1_three_cot", "mt1_three", mode="cot")
process_docs_tempvs_mt1_three_separate = variant("tempvs_mt1_three_separate", "mt1_three", visual="separate")
process_docs_tempvs_mt2_event_unfiltered = variant("tempvs_mt2_event_unfiltered", "mt2_event", blind_filter=False)
process_docs_tempvs_mt2_event_blind = variant("tempvs_mt2_event_blind", "mt2_event", mode="blind", visual="none", blind_filter=False)
process_docs_tempvs_mt2_event_cot = variant("tempvs_mt2_event_cot", "mt2_event", mode="cot")
process_docs_tempvs_mt2_event_separate = variant("tempvs_mt2_event_separate", "mt2_event", visual="separate")
process_docs_tempvs_mt2_caption_unfiltered = variant("tempvs_mt2_caption_unfiltered", "mt2_caption", blind_filter=False)
process_docs_tempvs_mt2_caption_blind = variant("tempvs_mt2_caption_blind", "mt2_caption", mode="blind", visual="none", blind_filter=False)
process_docs_tempvs_mt2_caption_cot = variant("tempvs_mt2_caption_cot", "mt2_caption", mode="cot")
process_docs_tempvs_mt2_caption_separate = variant("tempvs_mt2_caption_separate", "mt2_caption", visual="separate")
process_docs_tempvs_mt3_event_cot = variant("tempvs_mt3_event_cot", "mt3_event", mode="cot")
process_docs_tempvs_mt3_event_separate = variant("tempvs_mt3_event_separate", "mt3_event", visual="separate")
process_docs_tempvs_mt3_images_only = variant("tempvs_mt3_images_only", "mt3_event", mode="images_only")
process_docs_tempvs_mt3_caption_cot = variant("tempvs_mt3_caption_cot", "mt3_caption", mode="cot")
process_docs_tempvs_mt3_caption_separate = variant("tempvs_mt3_caption_separate", "mt3_caption", visual="separate")
process_docs_tempvs_gt_paired = variant("tempvs_gt_paired", "gt_paired")
process_docs_tempvs_gt_paired_separate = variant("tempvs_gt_paired_separate", "gt_paired", visual="separate")
process_docs_tempvs_gt_triple = variant("tempvs_gt_triple", "gt_triple")
process_docs_tempvs_gt_triple_separate = variant("tempvs_gt_triple_separate", "gt_triple", visual="separate")
process_docs_tempvs_gt_all = variant("tempvs_gt_all", "gt_all")
process_docs_tempvs_gt_all_separate = variant("tempvs_gt_all_separate", "gt_all", visual="separate")
process_docs_tempvs_gt_all_story = variant("tempvs_gt_all_story", "gt_all_story")
process_docs_tempvs_gt_all_story_separate = variant("tempvs_gt_all_story_separate", "gt_all_story", visual="separate")
